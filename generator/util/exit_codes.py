"""The exit codes of every kbgen command: 0 done, 1 the input has errors (or the work
failed), 2 the command was used wrongly or refused to write where it was pointed."""

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
