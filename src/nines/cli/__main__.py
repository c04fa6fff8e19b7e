"""`python -m nines.cli`: the `nines` command without the installed script."""

from . import main

# guarded: a worker process started by forkserver or spawn (the server's reviews) imports this module
# again as its parent's main module, and must not run the command a second time
if __name__ == "__main__":
    main()
