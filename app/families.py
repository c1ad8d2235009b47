"""The service's packages, in the order their load-data sections are written."""

from app.admin import FAMILY as ADMIN
from app.checks import FAMILY as CHECKS
from app.rider import FAMILY as RIDER
from app.shop import FAMILY as SHOP
from app.training import FAMILY as TRAINING

FAMILIES = (CHECKS, SHOP, TRAINING, RIDER, ADMIN)
