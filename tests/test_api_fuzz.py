"""Schemathesis against the app's own OpenAPI document: every operation, generated inputs; no
server error and no response that the document does not describe."""
import os
import tempfile
from collections import Counter
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config._checks import NegativeDataRejectionConfig, PositiveDataAcceptanceConfig, SimpleCheckConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.app import create_app
from api.settings import Settings
from cli.build import build
from kb.loader import load
from tests.conftest import FIGURES, FIXTURE_DATA, _with_real_rules

# Built at import: schemathesis reads the schema when pytest collects the tests.
_TMP = Path(tempfile.mkdtemp(prefix="rulekb-fuzz-"))
build(f"sqlite:///{_TMP / 'kb.db'}", kb=load(FIXTURE_DATA))
_with_real_rules(f"sqlite:///{_TMP / 'kb.db'}", load())  # Gugong's whole rule set: sessions can be played
# No creation limit: the stateful run starts many sessions from one address (test_api_sessions_trust
# tests the limit).
APP = create_app(settings=Settings(database_url=f"sqlite:///{_TMP / 'kb.db'}", site_dir=None,
                                   sessions_url=f"sqlite:///{_TMP / 'sessions.db'}", create_per_minute=0))
schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", APP)
# An invalid body that is also over the size limit is rightly refused for its size: 413 counts as a
# rejection too (schemathesis' default list of rejection statuses leaves it out).
schema.config.checks.negative_data_rejection = NegativeDataRejectionConfig(
    expected_statuses=[*NegativeDataRejectionConfig().expected_statuses, "413"])


@schema.parametrize()
# Deterministic by default, so the suite gates the same inputs every run; RULEKB_FUZZ_EXPLORE=1 draws new ones.
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=not os.environ.get("RULEKB_FUZZ_EXPLORE"))
def test_every_operation_conforms(case):
    # Every check but one: "positive data acceptance" expects every schema-valid body to succeed, but
    # a game's own limits (1-5 players in Gugong, 2-4 in ZhanGuo; seats naming the players) are
    # checked by the engine and answered with a 422 problem document, which is correct.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


# The stateful run skips the same check as above: a schema-valid body may still break a game's own
# limits (player range, names) and is rightly answered 422.
schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(enabled=False)
# And "ignored auth": it sends a made-up token and expects 401/403, but a session that no longer exists
# answers 404 whatever the token (a token is checked against its session's hashes; no token is 401).
schema.config.checks.ignored_auth = SimpleCheckConfig(enabled=False)

# Stateful, over the session routes: sequences of calls that follow the OpenAPI links (a created session's id and tokens into
# reading, acting with the first legal action, paging and deleting it): no server error and no
# undocumented response along the way, and the links must really lead to moves and deletions.
CALLS: Counter = Counter()
# The move a link carries is sent as it is: merged into a generated action it gains fields the game
# rightly refuses (422), and no move would ever be applied.
schema.raw_schema["paths"]["/api/v1/sessions"]["post"]["responses"]["201"]["links"]["act"]["x-schemathesis"] = {
    "merge_body": False}


class Workflow(schema.include(path_regex="^/api/v1/sessions").as_state_machine()):
    def after_call(self, response, case):
        super().after_call(response, case)
        CALLS[case.method.upper(), case.operation.path.removeprefix("/api/v1"), response.status_code] += 1


TestSessionWorkflows = Workflow.TestCase
TestSessionWorkflows.settings = settings(max_examples=30, stateful_step_count=6, deadline=None,
                                         suppress_health_check=list(HealthCheck),
                                         derandomize=not os.environ.get("RULEKB_FUZZ_EXPLORE"))


def _closing_figures(cls):
    created, moves = CALLS["POST", "/sessions", 201], CALLS["POST", "/sessions/{sid}/actions", 200]
    tried, deletes = sum(n for (m, p, _), n in CALLS.items() if m == "POST" and p.endswith("/actions")), \
        CALLS["DELETE", "/sessions/{sid}", 204]
    FIGURES.append(f"stateful schemathesis: {sum(CALLS.values())} calls, {created} sessions created, "
                   f"{moves} of {tried} moves applied, {deletes} sessions deleted")
    assert moves > 0 and deletes > 0, sorted(CALLS.items())


TestSessionWorkflows.tearDownClass = classmethod(_closing_figures)
