"""Discord cogs (slash-command groups) for the Umtali bot."""
