"""HTTP handlers of the checks family."""

from aiohttp import web

routes = web.RouteTableDef()
