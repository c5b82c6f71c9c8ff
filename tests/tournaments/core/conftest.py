"""Plain-function tests of the Django-free tournament cores (no database, no fixtures)."""

import sys
from pathlib import Path

# The cores import as ``tournaments.*`` from the project root, with or without pytest-django.
ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
