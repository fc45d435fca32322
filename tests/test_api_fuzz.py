"""Schemathesis against the app's own OpenAPI document: every operation, generated inputs; no
server error and no response that the document does not describe."""
import os
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config._checks import NegativeDataRejectionConfig, PositiveDataAcceptanceConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance

from api.app import create_app
from cli.build import build
from kb.loader import load
from tests.conftest import FIXTURE_DATA

# Built at import: schemathesis reads the schema when pytest collects the tests.
_TMP = Path(tempfile.mkdtemp(prefix="rulekb-fuzz-"))
build(f"sqlite:///{_TMP / 'kb.db'}", kb=load(FIXTURE_DATA))
APP = create_app(f"sqlite:///{_TMP / 'kb.db'}", site_dir=None, sessions_url=f"sqlite:///{_TMP / 'sessions.db'}")
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

# Stateful: sequences of calls that follow the OpenAPI links (a created session's id into reading,
# acting on, paging and deleting it): no server error and no undocumented response along the way.
Workflow = schema.as_state_machine()
TestSessionWorkflows = Workflow.TestCase
TestSessionWorkflows.settings = settings(max_examples=15, stateful_step_count=6, deadline=None,
                                         suppress_health_check=list(HealthCheck),
                                         derandomize=not os.environ.get("RULEKB_FUZZ_EXPLORE"))
