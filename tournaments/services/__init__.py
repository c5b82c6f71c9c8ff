"""The write side of the tournaments app: keyword-only functions named for what they do,
each inside one transaction, each naming who acts (a required ``by: Actor``, see
actor.py). Views, the API and tasks call these; they call the pure cores (pairing,
scoring, standings, the rules engine)."""
