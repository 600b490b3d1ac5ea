"""The web playground (``nimlab serve``): FastAPI on uvicorn, over the public API."""
