"""The site's pages, one module per audience and task: the organiser's run page
(run.py, its context in run_page.py), the desk (desk.py: players, check-in, undo), the
pairing editor (editor.py), results (results.py: the results screen and a player's link),
teams (teams.py), the recording board (board.py) and the family's replay (family.py),
public pages (public.py), the projector (live.py) and printed sheets (print.py). They
share common.py; none imports another's private names. Every write is a service call."""
