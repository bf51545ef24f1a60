"""What every API view shares: errors from services, and pagination.

Services raise Django's ValidationError (a dict keyed by field) and
PermissionDenied; the exception handler turns the former into a DRF 400 with the
same shape, so views never translate errors themselves.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, pagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DjangoValidationError):
        detail: Any = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail)
    return drf_exception_handler(exc, context)


class PagePagination(pagination.PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class NewestFirstCursorPagination(pagination.CursorPagination):
    """Stable pages over a growing table: new rows never shift the next page."""

    page_size = 25
    page_size_query_param = "page_size"
    max_page_size = 100
    ordering = ("-created_at", "-id")


def paginated(view: Any, queryset: Any, serializer_class: Any, **context: Any) -> Response:
    """Paginate with the view's paginator and serialize the page."""
    paginator = view.pagination_class()
    page = paginator.paginate_queryset(queryset, view.request, view=view)
    data = serializer_class(page, many=True, context={"request": view.request, **context}).data
    return paginator.get_paginated_response(data)
