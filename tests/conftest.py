"""Shared test set-up.

* No test ever reads or writes the real user data directory.
* Hypothesis profiles: ``ci`` (the default; deterministic, no example database, no
  deadline) and ``quick`` (the same with a tenth of the examples, for the quick loop:
  ``HYPOTHESIS_PROFILE=quick pytest -m "not slow"``). Tests that fix their own number of
  examples (the property tests over random deals) say so in their own settings.
"""

import os
import tempfile

from hypothesis import HealthCheck, settings

# a per-run data directory unless a test points TWOS_TUI_HOME somewhere else itself
os.environ["TWOS_TUI_HOME"] = tempfile.mkdtemp(prefix="twos-tui-tests-")

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("quick", settings.get_profile("ci"), max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
