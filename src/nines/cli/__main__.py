"""`python -m nines.cli`: the `nines` command without the installed script."""

from . import main

main()
