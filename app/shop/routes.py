"""HTTP handlers of the shop family."""

from aiohttp import web

routes = web.RouteTableDef()
