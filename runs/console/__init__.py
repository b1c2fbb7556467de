"""The console's pages about runs that the stores console does not hold: the run-record search."""
