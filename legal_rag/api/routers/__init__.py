"""The API's routes, one router per resource; ``legal_rag.api.app.create_app`` includes each with one line."""
