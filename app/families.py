"""The three API families, in the order their load-data sections are written, and the web
areas."""

from app.admin import FAMILY as ADMIN
from app.checks import FAMILY as CHECKS
from app.shop import FAMILY as SHOP
from app.training import FAMILY as TRAINING

FAMILIES = (CHECKS, SHOP, TRAINING, ADMIN)
