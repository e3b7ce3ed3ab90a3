"""One guard for every upload, so no request can make a web process read (or spool to disk) more
than ``UPLOAD_MAX_MB``, and no uploaded file can be bigger than ``UPLOAD_FILE_MAX_MB``.

- ``BodyLimit`` wraps the ASGI application (config/asgi.py, what ``bin/serve`` runs): Django's
  ASGI handler reads the whole body before any middleware or view runs, so the limit is checked
  here, on Content-Length before the body is received, and on the bytes counted as they arrive
  (a body without Content-Length); past it the request is answered 413 and no more is read.
- ``body_limit_middleware`` does the same check on Content-Length under WSGI (``runserver``, the
  test client), before anything reads the body.
- ``UploadLimitHandler``, first of ``FILE_UPLOAD_HANDLERS``, counts each file's bytes as the
  multipart parser streams them: a file past its limit is skipped (``SkipFile``) as soon as it
  passes it and noted on the request with its reason, so it fails alone and the other files of
  the upload are kept. A view reads the notes with ``refused_files(request)``.
"""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpResponse
from django.utils.decorators import sync_and_async_middleware
from django.utils.html import format_html

MIB = 1024 * 1024


def request_limit() -> int:
    return settings.UPLOAD_MAX_MB * MIB


def file_limit() -> int:
    return settings.UPLOAD_FILE_MAX_MB * MIB


def too_large_message() -> str:
    return (
        f"This upload is larger than {settings.UPLOAD_MAX_MB} MB; choose fewer or smaller files "
        "(gzipped files are smaller) and upload the rest in another go."
    )


def file_too_large_message() -> str:
    return (
        f"larger than {settings.UPLOAD_FILE_MAX_MB} MB; gzip it (.gz) or split it into smaller "
        "files and upload again"
    )


def refused_files(request) -> list[tuple[str, str]]:
    """``(file name, reason)`` of each file left out of the upload."""
    return list(getattr(request, "upload_refused_files", []))


def too_large_page(path: str) -> bytes:
    return format_html(
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        "<title>Upload too large · Spotter</title></head><body><main>"
        '<h1>Upload too large</h1><p role="alert">{}</p><p><a href="{}">Back</a></p>'
        "</main></body></html>",
        too_large_message(),
        path,
    ).encode()


def _too_large(length: str | bytes | None) -> bool:
    try:
        return int(length or 0) > request_limit()
    except ValueError:
        return False


@sync_and_async_middleware
def body_limit_middleware(get_response):
    """Refuse on Content-Length before anything (CSRF, the view) reads the body."""

    def refused(request) -> HttpResponse | None:
        if _too_large(request.META.get("CONTENT_LENGTH")):
            return HttpResponse(too_large_page(request.path), status=413)
        return None

    if iscoroutinefunction(get_response):

        async def middleware(request):
            return refused(request) or await get_response(request)

    else:

        def middleware(request):
            return refused(request) or get_response(request)

    return middleware


class UploadLimitHandler(FileUploadHandler):
    """Counts the bytes of each file, passing every chunk on to the next handler."""

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        self.request.upload_refused_files = []

    def new_file(self, field_name, file_name, *args, **kwargs):
        super().new_file(field_name, file_name, *args, **kwargs)
        self.size = 0

    def receive_data_chunk(self, raw_data, start):
        self.size += len(raw_data)
        if self.size > file_limit():
            self.request.upload_refused_files.append((self.file_name, file_too_large_message()))
            raise SkipFile
        return raw_data

    def file_complete(self, file_size):
        return None  # the next handler stores the file


class BodyLimit:
    """ASGI middleware: refuses a body over ``UPLOAD_MAX_MB`` before reading it (Content-Length)
    or as soon as the bytes received pass it; the application then sees a disconnect."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if _too_large(length):
            await self._refuse(scope, send)
            return
        state = {"received": 0, "refused": False, "started": False}

        async def limited_receive():
            if state["refused"]:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                state["received"] += len(message.get("body", b""))
                if state["received"] > request_limit():
                    state["refused"] = True
                    return {"type": "http.disconnect"}
            return message

        async def tracking_send(message):
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        await self.app(scope, limited_receive, tracking_send)
        if state["refused"] and not state["started"]:
            await self._refuse(scope, send)

    @staticmethod
    async def _refuse(scope, send) -> None:
        body = too_large_page(scope.get("path", "/"))
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"text/html; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
