"""Every change to the console's data goes through a function here."""
