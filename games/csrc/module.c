/* games._core: the compiled core (games/rules/native.py loads it, with a pure Python
 * fallback). rules.c: move generation, perft, playouts; search.c: the duel search. */
#include "core.h"

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "games._core",
    "The compiled core of the rules and of the duel search (see docs/architecture.md).", -1,
    RULES_METHODS,
};

PyMODINIT_FUNC PyInit__core(void) {
    cards_init();
    PyObject *module = PyModule_Create(&MODULE);
    if (!module) return NULL;
    if (search_add_to_module(module) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
