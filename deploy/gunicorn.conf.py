"""The site's gunicorn settings, for the image's default command and the compose file.

Threaded workers: each open live stream (Server-Sent Events) holds a thread for its
length, so three processes of 32 threads serve about 90 streams and pages together
(docs/live.md).

`keepalive` is longer than gunicorn's 2 s because the site is served directly, not
behind a proxy, and its clients poll: the pages' live parts ask every 2 s
(`web/live.js`), API clients every few seconds whether a bot has qualified or an
analysis is done. Gunicorn closes an idle kept-alive connection at its next wake-up
after the limit (up to a second later); a client polling at about that interval can
send its next request on the connection just as the server closes it, and gets
"connection aborted" back. With 5 s, a client polling every 2 or 3 s never meets the
close, and an idle connection costs the server only its socket for a few seconds.
"""

bind = "0.0.0.0:8000"
workers = 3
worker_class = "gthread"
threads = 32
keepalive = 5
accesslog = "-"
