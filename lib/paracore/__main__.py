import sys

from paracore.app.cli import main

sys.exit(main())
