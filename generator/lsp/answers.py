"""How the server answers when a handler fails: a short message, the traceback in its log.

pygls answers an exception in a handler with an internal error whose message is the
exception's text and whose data is the traceback: file paths, the server's code and
whatever a record put into the exception reach the client. Every handler is registered
through ``shielded``, so the answer is one fixed sentence, and the traceback is written
where the server's operator reads it (its log, on stderr), never into a reply.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from pygls.exceptions import JsonRpcException, JsonRpcInternalError

log = logging.getLogger("kbgen.lsp")

INTERNAL_FAILURE = "kbgen could not answer this request (an internal error; the server's log has the details)"

Handler = TypeVar("Handler", bound=Callable[..., Any])


class InternalFailure(JsonRpcInternalError):
    """An internal error as the client sees it: a fixed message and no data."""

    def __init__(self) -> None:
        super().__init__(message=INTERNAL_FAILURE)

    def __str__(self) -> str:
        return INTERNAL_FAILURE


def shielded(handler: Handler) -> Handler:
    """``handler`` with every exception but a deliberate JSON-RPC answer (a refusal) logged
    with its traceback and answered as an ``InternalFailure``."""
    name = getattr(handler, "__name__", "handler")

    if inspect.iscoroutinefunction(handler):

        @functools.wraps(handler)
        async def answered_async(*args: Any, **kwargs: Any) -> Any:
            try:
                return await handler(*args, **kwargs)
            except JsonRpcException:
                raise
            except Exception:
                log.exception("%s failed", name)
                raise InternalFailure() from None

        return answered_async  # type: ignore[return-value]

    @functools.wraps(handler)
    def answered(*args: Any, **kwargs: Any) -> Any:
        try:
            return handler(*args, **kwargs)
        except JsonRpcException:
            raise
        except Exception:
            log.exception("%s failed", name)
            raise InternalFailure() from None

    return answered  # type: ignore[return-value]
