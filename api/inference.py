"""The recognizer behind /v1/recognize: loaded once per process, run off the event loop.

The models load in a background thread at startup so the process answers /healthz at once
and /readyz turns 200 when they are in; if they are missing, loading is retried now and then
(models may be installed after the server started). Recognition is CPU-bound: it runs on a
small thread pool, and a semaphore in front of the pool makes excess requests wait a short,
bounded time and then answer 503 with Retry-After instead of piling up.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar

from api.limits import Limits
from api.memory import release_free_memory
from api.problems import (
    BAD_PHOTO,
    BAD_REQUEST,
    BUSY,
    INVALID_FIELD,
    NOT_READY,
    TOO_LARGE,
    UNSUPPORTED_MEDIA,
    Kind,
    Problem,
)

log = logging.getLogger("mjlens.api")
T = TypeVar("T")


class Recognition(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class RecognizerLike(Protocol):
    def recognize(
        self, data: bytes, context: Mapping[str, Any] | None = None, ruleset: str = "mcr"
    ) -> Recognition: ...


RecognizerFactory = Callable[[], RecognizerLike]


def default_recognizer() -> RecognizerLike:
    from vision.pipeline import Recognizer  # heavy (onnxruntime): only when models load

    recognizer: RecognizerLike = Recognizer()
    return recognizer


_PHOTO_KINDS: dict[int, Kind] = {400: BAD_REQUEST, 413: TOO_LARGE, 415: UNSUPPORTED_MEDIA}


def photo_problem(exc: Exception) -> Problem | None:
    """vision's PhotoError (it carries the HTTP status) as a problem; None for anything else."""
    try:
        from vision.load import PhotoError
    except ImportError:
        return None
    if not isinstance(exc, PhotoError):
        if type(exc).__name__ == "ContextError":  # vision.pipeline's: a context field it refuses
            return Problem(INVALID_FIELD, str(exc))
        return None
    status = exc.status if exc.status in (*_PHOTO_KINDS, 422) else 422
    return Problem(_PHOTO_KINDS.get(status, BAD_PHOTO), str(exc), status=status, pointer="/photo")


def _load_failure(exc: Exception) -> str:
    """Why the models did not load, in words for a client (the log keeps the exception)."""
    if isinstance(exc, FileNotFoundError):
        if exc.filename:  # the OS's words ("[Errno 2] ..."): name the file instead
            return f"the models could not be loaded: {Path(exc.filename).name} is missing"
        return f"the models could not be loaded: {exc}"  # vision.registry's own words
    if isinstance(exc, ImportError):
        return "the models could not be loaded: the vision package is not installed"
    return "the models could not be loaded (the server log says why)"


def _trimmed(job: Callable[[Any], T], recognizer: Any) -> T:
    """`job(recognizer)`, then the allocator's free pages back to the system."""
    try:
        return job(recognizer)
    finally:
        release_free_memory()


class RecognizerHost:
    """Owns the one recognizer of this process, its loading state and its worker pool."""

    def __init__(self, factory: RecognizerFactory, limits: Limits) -> None:
        self._factory = factory
        self._limits = limits
        self._lock = threading.Lock()
        self._recognizer: RecognizerLike | None = None
        self._error = "the models are loading"
        self._loading = False
        self._last_attempt = -float("inf")
        self._loaded_at: float | None = None
        self._executor = ThreadPoolExecutor(limits.workers, thread_name_prefix="recognize")
        self._slots: asyncio.Semaphore | None = None
        self._admitted = 0

    # -- loading ---------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        return self._recognizer is not None

    @property
    def error(self) -> str | None:
        return None if self.ready else self._error

    def start_loading(self) -> None:
        """Load the models in the background unless loaded, loading, or failed just now."""
        with self._lock:
            if self._recognizer is not None or self._loading:
                return
            if time.monotonic() - self._last_attempt < self._limits.model_retry_s:
                return
            self._loading = True
            self._last_attempt = time.monotonic()
        threading.Thread(target=self._load, name="load-models", daemon=True).start()

    def _load(self) -> None:
        started = time.perf_counter()
        try:
            recognizer = self._factory()
        except Exception as exc:  # missing files, bad ONNX, vision not installed
            with self._lock:
                self._error = _load_failure(exc)
                self._loading = False
            log.warning(
                "the models could not be loaded: %s: %s (retrying in %.0f s)",
                type(exc).__name__,
                exc,
                self._limits.model_retry_s,
            )
            return
        with self._lock:
            self._recognizer = recognizer
            self._loaded_at = time.time()
            self._loading = False
        log.info("models loaded in %.1f s", time.perf_counter() - started)

    def wait_ready(self, timeout: float) -> bool:
        """Block until loaded or `timeout` seconds passed (for tests and the CLI)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.ready:
                return True
            with self._lock:
                if not self._loading:
                    return False
            time.sleep(0.02)
        return self.ready

    def not_ready_problem(self) -> Problem:
        self.start_loading()
        return Problem(
            NOT_READY,
            self._error,
            headers={"Retry-After": str(max(self._limits.retry_after_s, 1))},
        )

    # -- running ---------------------------------------------------------------------------

    @asynccontextmanager
    async def admission(self) -> AsyncIterator[None]:
        """Refuse a photo request at once (503) when the line of received photos is full.

        Nothing is held while the request's body streams in (api.bodies paces that): a
        photo joins the line, and counts against `admitted`, when it is handed to `run`."""
        if self._admitted >= self._limits.admitted:
            raise self.busy_problem()
        yield

    def busy_problem(self) -> Problem:
        return Problem(
            BUSY,
            f"{self._admitted} photos are already being read; try again shortly",
            headers={"Retry-After": str(self._limits.retry_after_s)},
        )

    @property
    def saturated(self) -> bool:
        """The line of received photos is full: a photo sent now would get 503."""
        return self._admitted >= self._limits.admitted

    async def recognize(
        self, data: bytes, context: Mapping[str, Any], ruleset: str
    ) -> tuple[dict[str, Any], float]:
        """Run the recognizer on a worker thread: (Recognition JSON, ms spent waiting)."""
        recognition, wait_ms = await self.run(
            lambda recognizer: recognizer.recognize(data, dict(context) or None, ruleset)
        )
        return recognition.to_json(), wait_ms

    async def run(self, job: Callable[[Any], T]) -> tuple[T, float]:
        """`job(recognizer)` on a worker thread, after waiting for a free worker as a
        recognition does: (its result, ms spent waiting). A PhotoError it raises answers as
        the photo's problem; a Problem it raises answers as itself."""
        recognizer = self._recognizer
        if recognizer is None:
            raise self.not_ready_problem()
        if self._admitted >= self._limits.admitted:
            raise self.busy_problem()
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._limits.workers)
        slots = self._slots
        self._admitted += 1
        waited = time.perf_counter()
        try:
            await asyncio.wait_for(slots.acquire(), self._limits.queue_wait_s)
        except BaseException as exc:
            self._admitted -= 1
            if isinstance(exc, TimeoutError):
                raise Problem(
                    BUSY,
                    f"all {self._limits.workers} recognizer workers stayed busy for "
                    f"{self._limits.queue_wait_s:.0f} s",
                    headers={"Retry-After": str(self._limits.retry_after_s)},
                ) from None
            raise
        wait_ms = (time.perf_counter() - waited) * 1000
        loop = asyncio.get_running_loop()
        future = self._executor.submit(_trimmed, job, recognizer)

        def finished() -> None:
            slots.release()
            self._admitted -= 1

        # The slot frees when the work ends, not when the client goes: a cancelled request
        # must not let more jobs run than there are workers, nor more photos sit in memory.
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(finished))
        try:
            result = await asyncio.wrap_future(future)
        except Exception as exc:
            problem = photo_problem(exc)
            if problem is None:
                raise
            raise problem from None
        return result, wait_ms

    def status(self) -> dict[str, Any]:
        return {
            "ready": self.ready,
            "error": self.error,
            "loaded_at": self._loaded_at,
            "workers": self._limits.workers,
            "admitted": self._admitted,
        }

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
