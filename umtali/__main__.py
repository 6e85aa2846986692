import io
import os
import sys

if sys.version_info < (3, 11):  # noqa: UP036 (what an older python3 is told, not a traceback)
    # Older ones import the package but fail part-way through (a verdict half printed, with a
    # mismatch's status): the docs ask for 3.11.
    print(f"python -m umtali needs Python 3.11 or newer; this is {sys.version.split()[0]}.",
          file=sys.stderr)
    raise SystemExit(2)

from umtali.cli import main

# What the output's encoding cannot write (a typed cut in Cyrillic, on a Windows console
# redirected to a cp1252 file) is written as its escape: a traceback mid-verdict would exit
# with a mismatch's status, and say nothing of the deals.
if isinstance(sys.stdout, io.TextIOWrapper):
    sys.stdout.reconfigure(errors="backslashreplace")
# What a terminal sends in another encoding than its locale's (Windows-1251 typed under
# ru_RU.UTF-8, which Python reads strictly) is read as U+FFFD: that line is no move, said so.
if isinstance(sys.stdin, io.TextIOWrapper):
    sys.stdin.reconfigure(errors="replace")

try:
    status = main()
    if sys.stdout is not None:  # None: closed (``>&-``), which main() said
        sys.stdout.flush()
except BrokenPipeError:
    # The reader went away (``verify FILE | head -1``): no traceback. Python flushes stdout
    # again at exit, so it is pointed at /dev/null first; the status is a shell's for SIGPIPE.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    status = 128 + 13
raise SystemExit(status)
