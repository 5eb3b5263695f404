"""``python -m nochmal.cli``: the command line."""

import sys

from nochmal.cli import main

sys.exit(main())
