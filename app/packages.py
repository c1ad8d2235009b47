"""The service's packages, in the order their load-data sections are written."""

from app.admin import PACKAGE as ADMIN
from app.checks import PACKAGE as CHECKS
from app.rider import PACKAGE as RIDER
from app.shop import PACKAGE as SHOP
from app.training import PACKAGE as TRAINING

PACKAGES = (CHECKS, SHOP, TRAINING, RIDER, ADMIN)
