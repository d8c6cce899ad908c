"""One module per kbgen command: each adds its parser (``add_parser``) and runs it (``run``).

A command's module imports the layers it drives when it runs, not when kbgen starts: every
command parses the same command line, and ``kbgen check`` need not load MkDocs."""
