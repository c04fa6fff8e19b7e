"""How the server answers HTTP: the routes, and what a browser keeps (seat and name cookies).
"""
