"""Request and answer payloads of the kitchen's calls (``api/kitchen.py``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hotmeals.api.account_schemas import In
from hotmeals.api.deps import ShortText, example_config


class KitchenDayIn(In):
    model_config = example_config(
        {"school": "12", "date": "2026-12-07", "vendor": "Lakeshore Lunch Co.", "lang": "fr"}
    )
    school: ShortText | None = Field(default=None, description="The school's id or exact name")
    date: ShortText | None = Field(default=None, description="YYYY-MM-DD, the meal date")
    vendor: ShortText | None = Field(
        default=None,
        description="The vendor's id or exact name; left out: every vendor serving the school "
        "that day",
    )
    lang: ShortText | None = Field(
        default=None, description="en or fr; left out: the school's language"
    )


class LabelsIn(KitchenDayIn):
    model_config = example_config(
        {"school": "12", "date": "2026-12-07", "vendor": "", "format": "pdf", "lang": "en"}
    )
    format: ShortText | None = Field(default=None, description="pdf (default) or csv")


class CodeLabel(BaseModel):
    code: str
    label: str


class AllergyOut(BaseModel):
    allergen: str = Field(description="The ingredient, in the list's language")
    level: str = Field(description="Major, High, Medium or Low (as stored)")
    level_label: str
    major: bool
    in_meal: bool = Field(description="The meal as composed lists this ingredient")


class AttentionOut(BaseModel):
    order_line_id: int
    order_number: str
    child: str = Field(description="First name and last initial")
    teacher: str
    grade: str
    meal: str
    size: str
    size_label: str
    menu_option: str
    meal_option: str
    add_ons: list[str]
    allergies: list[AllergyOut]
    diets: list[CodeLabel] = Field(description="The child's dietary needs")
    fits: bool = Field(description="The meal as composed meets every need")
    unmet: list[CodeLabel]
    special_note: str
    count: int = Field(description="Meals of this line on the tray")


class MealCountOut(BaseModel):
    meal: str
    size: str
    size_label: str
    menu_option: str
    meal_option: str
    count: int


class AddOnCountOut(BaseModel):
    name: str
    count: int


class VendorListOut(BaseModel):
    vendor_id: int
    vendor: str
    frozen_at: str = Field(description="When the first read after the cut-off froze the day")
    attention: list[AttentionOut] = Field(description="Allergies and dietary needs, first")
    meals: list[MealCountOut]
    add_ons: list[AddOnCountOut]
    total: int


class ProductionListOut(BaseModel):
    school_id: int
    school: str
    date: str
    day: str
    lang: str = Field(description="The language of the names and words")
    lists: list[VendorListOut] = Field(description="One per vendor, by vendor name")
