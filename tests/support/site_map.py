"""The site as the tests that walk it see it: every URL pattern (from the URLconf) and every
form (from the project's modules), found by walking, so that a new page or form is covered
without editing a test."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django import forms
from django.urls import URLPattern, URLResolver, get_resolver

PROJECT_PACKAGES = ("accounts", "games", "yourtrumps_site")


@dataclass(frozen=True)
class Route:
    """One URL pattern: the regular expression of its whole path (without the leading `/`),
    its name and its view."""

    regex: str
    name: str
    view: Any

    @property
    def parts(self) -> list[tuple[str, str]] | None:
        """The path as ("text", literal) and ("group", name) parts, or None if its regex
        has more than literals and named groups (no plain way to fill it)."""
        return _parts(self.regex)

    @property
    def groups(self) -> dict[str, str]:
        """The regular expression of each named group."""
        return dict(re.findall(r"\(\?P<(\w+)>((?:[^()]|\([^()]*\))*)\)", self.regex))

    def fill(self, values: dict[str, str]) -> str | None:
        """The path with these (unquoted) values for its groups."""
        parts = self.parts
        if parts is None:
            return None
        return "/" + "".join(values[text] if kind == "group" else text for kind, text in parts)


def _parts(regex: str) -> list[tuple[str, str]] | None:
    parts: list[tuple[str, str]] = []
    literal, index = "", 0
    while index < len(regex):
        char = regex[index]
        if char == "\\":
            literal += regex[index + 1]
            index += 2
        elif regex.startswith("(?P<", index):
            name = regex[index + 4:regex.index(">", index)]
            depth = 0
            while True:  # to the group's closing parenthesis
                if regex[index] == "\\":
                    index += 2
                    continue
                depth += {"(": 1, ")": -1}.get(regex[index], 0)
                index += 1
                if depth == 0:
                    break
            if literal:
                parts.append(("text", literal))
                literal = ""
            parts.append(("group", name))
        elif char in "()[]*+?|{}^$.":
            return None
        else:
            literal += char
            index += 1
    if literal:
        parts.append(("text", literal))
    return parts


def _strip(regex: str) -> str:
    regex = regex.removeprefix("^")
    for end in ("\\Z", "$"):
        regex = regex.removesuffix(end)
    return regex


def routes() -> list[Route]:
    """Every URL pattern of the URLconf, the admin's included."""

    def walk(patterns: list[Any], prefix: str, names: str) -> Iterator[Route]:
        for entry in patterns:
            regex = prefix + _strip(entry.pattern.regex.pattern)
            if isinstance(entry, URLResolver):
                namespace = f"{names}{entry.namespace}:" if entry.namespace else names
                yield from walk(entry.url_patterns, regex, namespace)
            elif isinstance(entry, URLPattern):
                yield Route(regex=regex, name=f"{names}{entry.name or ''}",
                            view=entry.callback)

    return list(walk(get_resolver().url_patterns, "", ""))


def project_forms() -> list[type[forms.BaseForm]]:
    """Every form class defined in the project's packages (their modules imported)."""
    for package_name in PROJECT_PACKAGES:
        package = importlib.import_module(package_name)
        for module in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            if module.name.split(".")[-1] in {"forms", "views"}:
                importlib.import_module(module.name)
    found: list[type[forms.BaseForm]] = []
    pending: list[type[Any]] = [forms.BaseForm]
    while pending:
        cls = pending.pop()
        for sub in cls.__subclasses__():
            pending.append(sub)
            if sub.__module__.split(".")[0] in PROJECT_PACKAGES:
                found.append(sub)
    return sorted(set(found), key=lambda cls: f"{cls.__module__}.{cls.__qualname__}")


def route_forms(route: Route) -> list[type[forms.BaseForm]]:
    """The project's forms that the view of `route` uses: those named in its source (its
    class's, for a class-based view) or in the module's functions that it calls, directly
    or through others."""
    import inspect

    view = getattr(route.view, "view_class", None) or route.view
    module = inspect.getmodule(view)
    if module is None or module.__name__.split(".")[0] not in PROJECT_PACKAGES:
        return []
    source = inspect.getsource(inspect.unwrap(view))
    helpers = {name: member for name, member in vars(module).items()
               if inspect.isfunction(member) and member.__module__ == module.__name__}
    read: set[str] = set()
    while called := (set(re.findall(r"\b(\w+)\(", source)) & set(helpers)) - read:
        for name in called:  # and the helpers those call, and so on
            source += inspect.getsource(helpers[name])
        read |= called
    return [form for form in project_forms()
            if re.search(rf"\b{form.__name__}\b", source)]


def form_fields() -> dict[str, list[forms.Field]]:
    """Every field name of the project's forms, with the fields of that name."""
    fields: dict[str, list[forms.Field]] = {}
    for form_class in project_forms():
        for name, field in form_class.base_fields.items():
            fields.setdefault(name, []).append(field)
    return fields
