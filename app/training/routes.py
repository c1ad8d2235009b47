"""HTTP handlers of the training family."""

from aiohttp import web

routes = web.RouteTableDef()
