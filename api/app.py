"""The HTTP API and the phone page: `create_app()` wires scoring and vision to routes.

Routes only translate between HTTP and the Python seams of docs/INTERFACES.md; the caps
live in api.limits, body reading in api.uploads, the recognizer's lifecycle in
api.inference and every error shape in api.problems.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from api.bodies import BodyGuard, BodySlots
from api.context import DEFAULT_RULESETS, parse_context, parse_ruleset
from api.headers import SecurityHeaders
from api.inference import RecognizerFactory, RecognizerHost, default_recognizer
from api.labelstudio_backend import router as labelstudio_backend
from api.limits import Limits
from api.memory import tune_allocator
from api.offline_scorer import install_offline_routes
from api.problems import (
    BUSY,
    CATALOGUE,
    INVALID_HAND,
    NO_SCORING,
    NOT_FOUND,
    PlainJSONResponse,
    Problem,
    install_problem_handlers,
    problem_response,
)
from api.request_head import HeadAsGet, HeaderCap
from api.schemas import HAND_SCHEMA, RECOGNIZE_FORM_SCHEMA, SCORE_SCHEMA, problem_responses
from api.set_routes import (
    StoreFactory,
    install_set_routes,
    read_with_set,
    requested_learning,
    requested_set,
    store_factory,
)
from api.uploads import read_json, read_photo_form, sniff_image

STATIC = Path(__file__).parent / "static"
PHOTO_FIELD = "photo"


@dataclass
class Scoring:
    """The scoring package, or why it could not be imported (it is built in parallel)."""

    module: ModuleType | None
    error: str | None

    @classmethod
    def load(cls) -> Scoring:
        try:
            import scoring

            for name in ("score", "parse_hand_or_waiting", "HandError", "FAN_TABLE", "RULESETS"):
                getattr(scoring, name)
        except (ImportError, AttributeError) as exc:
            return cls(None, f"scoring is not available in this build: {exc}")
        return cls(scoring, None)

    @property
    def rulesets(self) -> tuple[str, ...]:
        return tuple(self.module.RULESETS) if self.module else DEFAULT_RULESETS

    def require(self) -> ModuleType:
        if self.module is None:
            raise Problem(NO_SCORING, self.error or "scoring is not available")
        return self.module


def create_app(
    recognizer_factory: RecognizerFactory | None = None,
    limits: Limits | None = None,
    sets_home: Path | None = None,
) -> FastAPI:
    """The FastAPI app. `recognizer_factory` builds the recognizer (tests inject a fake);
    taught sets live under `sets_home`, else under $MJLENS_HOME as it is at each request."""
    limits = limits or Limits.from_env()
    tune_allocator()
    stores = store_factory(sets_home)
    host = RecognizerHost(recognizer_factory or default_recognizer, limits)
    bodies = BodySlots(limits)
    scoring = Scoring.load()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        host.start_loading()
        yield
        host.close()

    app = FastAPI(
        title="mjlens",
        summary="Photograph a declared Mahjong win; get the tiles, melds and MCR score.",
        version="0.1.0",
        lifespan=lifespan,
        default_response_class=PlainJSONResponse,
        # FastAPI's Swagger UI and ReDoc load from a CDN; /docs is our offline reader instead.
        docs_url=None,
        redoc_url=None,
    )
    app.state.host = host
    app.state.limits = limits
    app.state.bodies = bodies
    # Outermost last: HEAD runs as GET through everything; the security headers go on
    # every answer, the guards' own 408/431/503 included.
    app.add_middleware(BodyGuard, slots=bodies)
    app.add_middleware(HeaderCap, header_bytes=limits.header_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HeadAsGet)
    install_problem_handlers(app)
    _page_routes(app)
    install_offline_routes(app)  # the page's scorer when the server cannot be reached
    _health_routes(app, host, bodies, scoring)
    _scoring_routes(app, scoring, limits)
    _recognize_route(app, host, scoring, limits, stores)
    install_set_routes(app, host, limits, stores)
    app.include_router(labelstudio_backend)  # Label Studio's ML backend, under /labelstudio/
    return app


def _page_routes(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")

    @app.get("/", include_in_schema=False)
    async def page() -> Response:
        index = STATIC / "index.html"
        if not index.is_file():
            raise Problem(NOT_FOUND, "the web page is not bundled in this build")
        return FileResponse(index, media_type="text/html; charset=utf-8")

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        # At the root, so the page's offline copy covers "/" (a worker's scope is its folder).
        headers = {"Cache-Control": "no-cache"}
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers=headers)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        return FileResponse(STATIC / "docs.html", media_type="text/html; charset=utf-8")

    @app.get("/problems/{slug}", tags=["errors"])
    async def problem_type(slug: str) -> dict[str, Any]:
        """What a problem `type` means (the `type` of every error points here)."""
        for kind in CATALOGUE:
            if kind.slug == slug:
                return {"type": kind.type, "title": kind.title, "status": kind.status}
        raise Problem(NOT_FOUND, f"no problem type {slug!r}")


def _health_routes(app: FastAPI, host: RecognizerHost, bodies: BodySlots, scoring: Scoring) -> None:
    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict[str, str]:
        """The process is alive and serving (it says nothing of the models)."""
        return {"status": "ok"}

    @app.get("/readyz", tags=["health"], responses=problem_responses(503))
    async def readyz(request: Request) -> Response:
        """200 once the recognition models are loaded and a photo sent now would be taken;
        503 problem (with Retry-After) until the models are in, and while the line of photos
        or every upload place is full."""
        if not host.ready:
            problem = host.not_ready_problem()
            return problem_response(request, problem.kind, problem.detail, headers=problem.headers)
        if host.saturated or bodies.saturated():
            busy = host.busy_problem() if host.saturated else None
            detail = busy.detail if busy else f"{len(bodies)} uploads are arriving at once"
            retry = {"Retry-After": str(app.state.limits.retry_after_s)}
            return problem_response(request, BUSY, detail, headers=retry)
        return PlainJSONResponse({"status": "ready", "scoring": scoring.error is None})


def _scoring_routes(app: FastAPI, scoring: Scoring, limits: Limits) -> None:
    @app.get("/v1/fans", tags=["scoring"], responses=problem_responses(422))
    async def fans(
        ruleset: str = Query("mcr", description="the rule set whose table to list"),
    ) -> dict[str, Any]:
        """A rule set's own fan table: id, names in English and Chinese, points in the rule
        set's unit, what each one excludes (ids and names of the same table), its cap."""
        scoring.require()
        from scoring.fan_tables import fan_table

        return fan_table(parse_ruleset(ruleset, scoring.rulesets)).to_json()

    @app.post(
        "/v1/score",
        tags=["scoring"],
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": HAND_SCHEMA}},
            }
        },
        responses={
            200: {"content": {"application/json": {"schema": SCORE_SCHEMA}}},
            **problem_responses(400, 413, 415, 422),
        },
    )
    async def score_hand(
        request: Request,
        ruleset: str | None = Query(
            None,
            description="mcr (default), mcr-mil, sichuan, sichuan-ordinary, shanghai or "
            "beijing; a Hand JSON may name its own `ruleset` instead",
        ),
    ) -> Response:
        """Score a Hand JSON. A hand that is not a win answers 200 with `valid: false`; one of
        13 tiles without `winning_tile` lists its `waits`, each win scored both ways."""
        module = scoring.require()
        asked = None if ruleset is None else parse_ruleset(ruleset, scoring.rulesets)
        data = await read_json(request, limits)
        from api.score_request import RequestRefused, parse_request  # the offline scorer's too

        try:
            hand, chosen = parse_request(data, asked)
        except RequestRefused as refused:
            raise Problem(INVALID_HAND, refused.detail, pointer=refused.pointer) from None
        result = await run_in_threadpool(module.score, hand, chosen)
        return PlainJSONResponse(result.to_json())


def _recognize_route(
    app: FastAPI, host: RecognizerHost, scoring: Scoring, limits: Limits, stores: StoreFactory
) -> None:
    @app.post(
        "/v1/recognize",
        tags=["vision"],
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"multipart/form-data": {"schema": RECOGNIZE_FORM_SCHEMA}},
            }
        },
        responses=problem_responses(400, 404, 409, 413, 415, 422, 503),
    )
    async def recognize(request: Request) -> Response:
        """Read a photo of a declared win: tiles (boxes in original pixels), melds, hand, score,
        warnings, the review flag, per-stage timings, model versions and the photo's SHA-256;
        with `set`, read with that taught tile set. A photo of 13 tiles, a hand waiting to
        win, answers its `waits` (each win on them scored on a discard and self-drawn)."""
        started = time.perf_counter()
        async with host.admission():
            form = await read_photo_form(request, limits, PHOTO_FIELD)
            fields = dict(form.fields)
            name = requested_set(fields, stores)
            learn = requested_learning(fields, name)
            context, ruleset = parse_context(fields, scoring.rulesets)
            sniff_image(form.photo)
            if not host.ready:
                raise host.not_ready_problem()
            if name is None:
                result, wait_ms = await host.recognize(form.photo, context, ruleset)
            else:
                job = read_with_set(stores(), name, form.photo, context, ruleset, learn)
                recognition, wait_ms = await host.run(job)
                result = recognition.to_json()
        timings = result.setdefault("timings_ms", {})
        if isinstance(timings, dict):
            timings["api_queue"] = round(wait_ms, 1)
            timings["api_total"] = round((time.perf_counter() - started) * 1000, 1)
        return PlainJSONResponse(result)
