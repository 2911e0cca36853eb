"""Reading rendered SVG in tests: ids, classes and texts (never bytes)."""

import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(svg: str, cls: str) -> dict:
    """id -> <g> element for groups whose class list holds ``cls`` ("node", "edge", ...)."""
    root = parse(svg) if isinstance(svg, str) else svg
    return {g.get("id"): g for g in root.iter(f"{SVG}g") if cls in g.get("class", "").split()}


def texts(group) -> list:
    return [(t.text or "").replace("\xa0", " ") for t in group.iter(f"{SVG}text")]
