"""A user's webhook: checking its URL, signing a body, posting it.

Hostile-first, like `arena.bots.uploads`: a URL comes from a user, and the site
will make requests to it from inside its own network. Each refusal is a sentence
the user can act on.

Why private addresses are refused (SSRF): a webhook URL pointing at
`http://127.0.0.1:6379/`, `http://10.0.0.5/admin/` or a cloud's metadata service
(`169.254.169.254`) would make the site send requests to machines only it can
reach. Production refuses loopback, private, link-local, multicast and reserved
addresses, both when the URL is saved (literal addresses, `localhost`) and before
every delivery (the name is resolved then: a name may point elsewhere later).
`ARENA_WEBHOOK_ALLOW_PRIVATE_ADDRESSES` allows them for development and tests,
whose receivers listen on 127.0.0.1. A name can still be re-pointed between the
check and the connection (DNS rebinding); an egress firewall is the complete
answer, this check the first line.

Signing: `X-OneCard-Timestamp: <unix seconds>` and
`X-OneCard-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`. The
timestamp is inside the signed bytes, so a receiver that refuses old timestamps
(five minutes, say) cannot be fed a recorded delivery again.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

MAX_URL_LENGTH = 500
SIGNATURE_HEADER = "X-OneCard-Signature"
TIMESTAMP_HEADER = "X-OneCard-Timestamp"


class WebhookUrlError(ValueError):
    """A webhook URL the site will not call; the message says why."""


class WebhookDeliveryError(Exception):
    """A delivery that did not reach a 2xx answer; the message says what happened."""


def webhook_url_check(url: str, *, allow_private: bool) -> str:
    """The URL, stripped, if the site may post to it; else WebhookUrlError.

    >>> webhook_url_check("https://hooks.example.org/onecard", allow_private=False)
    'https://hooks.example.org/onecard'
    >>> webhook_url_check("file:///etc/passwd", allow_private=True)
    Traceback (most recent call last):
    ...
    arena.notifications.webhooks.WebhookUrlError: Only http and https URLs can receive webhooks.
    """
    url = url.strip()
    if not url:
        raise WebhookUrlError("Enter a URL.")
    if len(url) > MAX_URL_LENGTH:
        raise WebhookUrlError(f"The URL is longer than {MAX_URL_LENGTH} characters.")
    if not url.isascii() or not url.isprintable():
        raise WebhookUrlError(
            "The URL may hold only printable ASCII characters: write an international "
            "domain name in its xn-- form and percent-encode the path."
        )
    if any(char.isspace() for char in url):
        raise WebhookUrlError("The URL may not contain spaces.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise WebhookUrlError("The URL is malformed (check the host and port).") from None
    if parts.scheme.lower() not in {"http", "https"}:
        raise WebhookUrlError("Only http and https URLs can receive webhooks.")
    if parts.username is not None or parts.password is not None:
        raise WebhookUrlError(
            "The URL may not carry a user name or password: check the signature instead."
        )
    if parts.fragment:
        raise WebhookUrlError("The URL may not have a #fragment (it is never sent).")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise WebhookUrlError("The URL has no host.")
    if port == 0:
        raise WebhookUrlError("The URL's port must be between 1 and 65535.")
    if not allow_private:
        address = _literal_address(host)
        if address is not None and not address_is_public(address):
            raise WebhookUrlError(
                f"{host} is a private, loopback or reserved address: the site does not "
                "send requests into its own network."
            )
        if host.lower() == "localhost" or host.lower().endswith(".localhost"):
            raise WebhookUrlError("localhost is this server: use a public address.")
    return url


def address_is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether an address is on the public internet (not loopback, private,
    link-local, shared, multicast or reserved); IPv4 inside IPv6 is unwrapped."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


def _literal_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    # The resolver also reads 2130706433, 0x7f.1 and 127.1 as 127.0.0.1.
    if all(char in "0123456789abcdefxABCDEFX." for char in host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


def webhook_host_check(url: str) -> None:
    """Resolve the URL's host now and refuse it if any address is not public."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        infos = socket.getaddrinfo(host, parts.port or 443, type=socket.SOCK_STREAM)
    except OSError as error:
        raise WebhookDeliveryError(f"The host {host} could not be resolved ({error}).") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not address_is_public(address):
            raise WebhookDeliveryError(
                f"The host {host} resolves to {address}, a private or reserved address."
            )


def webhook_sign(*, secret: str, timestamp: int, body: bytes) -> str:
    """The signature header's value for a body sent at `timestamp`.

    >>> webhook_sign(secret="s3cret", timestamp=1700000000, body=b'{"a":1}')[:15]
    'sha256=1698a50b'
    """
    message = str(timestamp).encode() + b"." + body
    return "sha256=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    # A redirect would take the request somewhere the URL checks never saw.
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None


# No proxies from the environment either: the request goes where the URL says.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirects())


def webhook_post(*, url: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST `body` to `url`; the status code of a 2xx answer, else WebhookDeliveryError."""
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")  # noqa: S310 (scheme checked)
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        kind = "a redirect (not followed)" if 300 <= error.code < 400 else "an error"
        raise WebhookDeliveryError(f"The endpoint answered {error.code}, {kind}.") from None
    except urllib.error.URLError as error:
        raise WebhookDeliveryError(f"The endpoint could not be reached: {error.reason}.") from None
    except TimeoutError:
        raise WebhookDeliveryError(f"The endpoint did not answer within {timeout:g} s.") from None
    except OSError as error:
        raise WebhookDeliveryError(f"The endpoint could not be reached: {error}.") from None
