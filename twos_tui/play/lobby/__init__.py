"""The lobby server (``twos-tui server``): many tables in one place, accounts, ratings,
quick match. :mod:`.model` holds the types the server, the store and the screens share."""
