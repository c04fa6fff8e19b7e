"""The tables in play: a table, its one driver (clock, stand-ins, computer players), one-time
seat claims, play again, hints, and the manager that makes, finds, loads and forgets tables.
"""
