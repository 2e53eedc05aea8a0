"""The web layer: Flask routes (``tablet``, ``phone``, ``home``, ``night``), the views and words
they draw with, and beneath them the service that writes (``service``, ``seats``) and the one
fold (``state``). The app factory is :func:`app.web.factory.create_app`. This package's own
import loads nothing, so the service and the fold can be used without Flask's routes.
"""
