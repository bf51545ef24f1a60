"""Sign up, log in, log out, password change, and the profile with the API token."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from rest_framework.authtoken.models import Token

from arena.core.throttles import throttle_allows
from arena.web.api_hints import upload_curl_command
from arena.web.forms import SignUpForm


def _safe_next(request: HttpRequest, fallback: str) -> str:
    # An open redirect after sign-up would let a link send new users anywhere.
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@never_cache
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:profile")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and not throttle_allows(request, scope="signup"):
        form.add_error(None, "Too many sign-ups from your address. Please try again later.")
        context = {"form": form, "nav": "signup", "next": _safe_next(request, "")}
        return render(request, "web/accounts/signup.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}! Submit your first bot.")
        return redirect(_safe_next(request, reverse("web:bot-submit")))
    return render(
        request,
        "web/accounts/signup.html",
        {"form": form, "nav": "signup", "next": _safe_next(request, "")},
    )


class LoginView(auth_views.LoginView):
    template_name = "web/accounts/login.html"
    redirect_authenticated_user = True
    extra_context = {"nav": "login"}

    def get_default_redirect_url(self) -> str:
        return reverse("web:my-bots")


class LogoutView(auth_views.LogoutView):
    # Django's LogoutView accepts POST only: a log-out link could be triggered by any
    # page that embeds an image pointing at it.
    next_page = reverse_lazy("web:home")


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "web/accounts/password_change.html"
    success_url = reverse_lazy("web:profile")
    extra_context = {"nav": "profile"}

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        response = super().form_valid(form)
        messages.success(self.request, "Your password has been changed.")
        return response


@require_safe
@never_cache
@login_required
def profile(request: HttpRequest) -> HttpResponse:
    token, _ = Token.objects.get_or_create(user=request.user)
    return render(
        request,
        "web/accounts/profile.html",
        {
            "nav": "profile",
            "token": token.key,
            "curl": upload_curl_command(request=request, token=token.key),
        },
    )


@require_POST
@login_required
def token_regenerate(request: HttpRequest) -> HttpResponse:
    with transaction.atomic():
        Token.objects.filter(user=request.user).delete()
        Token.objects.create(user=request.user)
    messages.success(request, "A new API token was created; the old one no longer works.")
    return redirect("web:profile")
