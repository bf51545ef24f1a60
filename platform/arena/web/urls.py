"""The pages of the site, mounted at "/"."""

from django.urls import path

from arena.web.views import (
    accounts,
    bots,
    home,
    leaderboard,
    live,
    matches,
    notifications,
    tables,
    tournaments,
)

app_name = "web"

urlpatterns = [
    path("", home.home, name="home"),
    path("examples/<slug:name>.py", home.example_bot_download, name="example-bot"),
    path("starter-kit.zip", home.starter_kit_download, name="starter-kit"),
    # Accounts: Django's default LOGIN_URL and LOGIN_REDIRECT_URL live under /accounts/.
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path("accounts/password/", accounts.PasswordChangeView.as_view(), name="password-change"),
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/profile/token/", accounts.token_regenerate, name="token-regenerate"),
    # Notifications: the list behind the bell, and the profile's settings forms.
    path("notifications/", notifications.notification_list, name="notifications"),
    path(
        "notifications/read-all/",
        notifications.notifications_read_all,
        name="notifications-read-all",
    ),
    path(
        "accounts/profile/notifications/",
        notifications.notification_preferences_save,
        name="notification-preferences",
    ),
    path("accounts/profile/webhook/", notifications.webhook_save, name="webhook-save"),
    path("accounts/profile/webhook/remove/", notifications.webhook_remove, name="webhook-remove"),
    # Bots.
    path("my/bots/", bots.my_bots, name="my-bots"),
    path("my/bots/submit/", bots.bot_submit, name="bot-submit"),
    path("my/bots/<str:name>/delete/", bots.bot_delete_confirm, name="bot-delete"),
    path("my/versions/<int:pk>/", bots.version_detail, name="version-detail"),
    path("my/versions/<int:pk>/status.json", bots.version_status, name="version-status"),
    path("my/versions/<int:pk>/activate/", bots.version_activate, name="version-activate"),
    path("my/versions/<int:pk>/retire/", bots.version_retire, name="version-retire"),
    path("my/versions/<int:pk>/code/", bots.version_download, name="version-download"),
    path(
        "my/versions/<int:pk>/qualification/<int:number>/",
        matches.qualification_game_replay,
        name="qualification-game-replay",
    ),
    path(
        "my/versions/<int:pk>/qualification/<int:number>/log.json",
        matches.qualification_game_log_download,
        name="qualification-game-log",
    ),
    path("bots/<str:name>/", bots.bot_detail, name="bot-detail"),
    path("bots/<str:name>/challenge/", bots.bot_challenge, name="bot-challenge"),
    # Ladders.
    path("leaderboard/", leaderboard.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:slug>/", leaderboard.leaderboard, name="competition-leaderboard"),
    # Matches and replays.
    path("matches/<int:pk>/", matches.match_detail, name="match-detail"),
    path("matches/<int:pk>/status.json", matches.match_status, name="match-status"),
    path("matches/<int:pk>/logs.zip", matches.match_logs_download, name="match-logs"),
    path(
        "matches/<int:pk>/games/<int:number>/",
        matches.match_game_by_number,
        name="match-game",
    ),
    path("matches/<int:pk>/live/", live.match_live, name="match-live"),
    path("live/pulse/", live.live_pulse, name="live-pulse"),
    path("games/<int:pk>/replay/", matches.game_replay, name="game-replay"),
    path("games/<int:pk>/log.json", matches.game_log_download, name="game-log"),
    path("games/<int:pk>/analysis/", matches.game_analysis_request, name="game-analysis"),
    # Tables: a person against bots.
    path("play/", tables.table_new, name="table-new"),
    path("tables/<int:pk>/", tables.table, name="table"),
    path("tables/<int:pk>/leave/", tables.table_leave, name="table-leave"),
    # Tournaments.
    path("tournaments/", tournaments.tournament_list, name="tournament-list"),
    path("tournaments/new/", tournaments.tournament_new, name="tournament-new"),
    path("tournaments/<int:pk>/", tournaments.tournament_detail, name="tournament-detail"),
    path(
        "tournaments/<int:pk>/logs.zip",
        tournaments.tournament_logs_download,
        name="tournament-logs",
    ),
    path(
        "tournaments/<int:pk>/progress.json",
        tournaments.tournament_progress_view,
        name="tournament-progress",
    ),
]
