"""The stylesheet pruner (hotmeals/ui/css_prune.py): only rules that style Radix
components the build never names go; everything else stays byte for byte."""

from __future__ import annotations

from pathlib import Path

from hotmeals.ui.css_prune import prune, prune_build, used_component_classes

USED = {"rt-Button", "rt-TextFieldRoot"}


def test_a_rule_of_an_unused_component_goes_and_a_used_one_stays() -> None:
    css = ".rt-Button{color:red}.rt-SelectTrigger{color:blue}.hm-card{padding:4px}"
    assert prune(css, USED) == ".rt-Button{color:red}.hm-card{padding:4px}"


def test_a_selector_list_keeps_its_live_selectors() -> None:
    css = ".rt-SelectItem:hover,.rt-Button:hover{opacity:.5}"
    assert prune(css, USED) == ".rt-Button:hover{opacity:.5}"
    # A selector that also names a used class but needs an unused one is dead.
    assert prune(".rt-Button .rt-SelectIcon{x:1}", USED) == ""


def test_media_and_layer_blocks_are_pruned_inside_and_dropped_when_empty() -> None:
    css = (
        "@layer components{@media (min-width:520px){.rt-SelectContent{a:1}}"
        ".rt-Button{b:2}}@media print{.rt-DataListRoot{c:3}}"
    )
    assert prune(css, USED) == "@layer components{.rt-Button{b:2}}"


def test_keyframes_font_faces_strings_comments_and_computed_classes_are_kept() -> None:
    css = (
        '@import url("x.css");@keyframes rt-spin{from{a:1}to{a:2}}'
        '@font-face{font-family:"a{b}"}/* .rt-Select{ */'
        ".rt-r-size-2{d:1}.xs\\:rt-r-p-3{e:2}.rt-variant-soft{f:3}"
        '[data-x="}"]{g:4}.rt-TextFieldRootish{h:5}'
    )
    assert prune(css, USED) == css.replace(".rt-TextFieldRootish{h:5}", "")


def test_a_build_keeps_the_classes_its_scripts_name(tmp_path: Path) -> None:
    assets = tmp_path / "assets"
    assets.mkdir()
    (assets / "page.js").write_text('e("rt-Button",p)')
    (tmp_path / "index.html").write_text('<div class="rt-TextFieldRoot"></div>')
    sheet = assets / "styles.css"
    sheet.write_text(".rt-Button{a:1}.rt-TextFieldRoot{b:2}.rt-TabsList{c:3}")
    assert used_component_classes(tmp_path) == USED
    assert prune_build(tmp_path) == {"styles.css": (54, 37)}
    assert sheet.read_text() == ".rt-Button{a:1}.rt-TextFieldRoot{b:2}"
