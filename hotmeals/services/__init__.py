"""The application's rules and workflows: what the UI and the API call."""
