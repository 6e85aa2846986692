import os
import sys

from umtali.cli import main

try:
    status = main()
    sys.stdout.flush()
except BrokenPipeError:
    # The reader went away (``verify FILE | head -1``): no traceback. Python flushes stdout
    # again at exit, so it is pointed at /dev/null first; the status is a shell's for SIGPIPE.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 128 + 13
raise SystemExit(status)
