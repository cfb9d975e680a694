"""What every part of the platform and every game may use: the errors a person can cause, who a
visitor is, the rate limits, the quick phrases, and the Kind a game fills (an abstract base). Imports
nothing else of the project."""
