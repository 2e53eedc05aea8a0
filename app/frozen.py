"""Read-only JSON: what the store reads is shared by every request that asks for the same
version (the states are cached), so nothing read from it may be changed in place.

``freeze`` turns parsed JSON into :class:`FrozenDict` and :class:`FrozenList`: a dict and a
list in every way a reader, ``json.dumps`` or ``==`` cares about, which refuse every change
with a ``TypeError``. Copy to change: ``{**d, "key": value}``, ``dict(d)``, ``list(xs)``, or
``copy.deepcopy`` (:func:`thaw`), which gives plain, changeable JSON.
"""

from __future__ import annotations

from typing import Any, NoReturn


def _refuse(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise TypeError(f"{type(self).__name__} is read-only: copy it to change it")


class FrozenDict(dict[str, Any]):
    """A JSON object that can't be changed."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=lambda item: item[0])))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return thaw(self)  # type: ignore[no-any-return]


class FrozenList(list[Any]):
    """A JSON array that can't be changed."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = clear = extend = insert = pop = remove = reverse = sort = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return thaw(self)  # type: ignore[no-any-return]


def freeze(value: Any) -> Any:
    """``value`` (parsed JSON) with every object and array in it made read-only."""
    if isinstance(value, dict):
        return value if isinstance(value, FrozenDict) else FrozenDict(
            (key, freeze(item)) for key, item in value.items())
    if isinstance(value, list | tuple):
        return value if isinstance(value, FrozenList) else FrozenList(
            freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    """A changeable deep copy of (frozen) JSON: what ``copy.deepcopy`` of a frozen value gives."""
    if isinstance(value, dict):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(item) for item in value]
    return value
