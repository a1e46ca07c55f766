/* games._core: the compiled core (games/rules/native.py loads it, with a pure Python
 * fallback). rules.c: move generation, perft, playouts; search.c: the duel search;
 * retrograde.c: the retrograde analysis of a duel position. */
#include "core.h"

PyObject *py_retrograde(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *py_retrograde_graph(PyObject *self, PyObject *args, PyObject *kwargs);
int retrograde_add_to_module(PyObject *module);

static PyMethodDef AI_METHODS[] = {
    {"retrograde", (PyCFunction)(void (*)(void))py_retrograde, METH_VARARGS | METH_KEYWORDS,
     "retrograde(trumps, strict, me, opp, pile, mover, draws=(), root_on_path=False, "
     "max_states=None) -> (value, distance, ((code, value, distance), ...), positions), "
     "or None past max_states"},
    {"retrograde_graph", (PyCFunction)(void (*)(void))py_retrograde_graph,
     METH_VARARGS | METH_KEYWORDS,
     "retrograde_graph(trumps, strict, root, draws=(), max_states=None, check=None) -> "
     "a SolvedGraph (solved[key] -> (status, distance)), or None past max_states"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "games._core",
    "The compiled core of the rules and of the duel search (see docs/architecture.md).", -1,
    RULES_METHODS,
};

PyMODINIT_FUNC PyInit__core(void) {
    cards_init();
    PyObject *module = PyModule_Create(&MODULE);
    if (!module) return NULL;
    if (search_add_to_module(module) < 0 || retrograde_add_to_module(module) < 0 ||
        PyModule_AddFunctions(module, AI_METHODS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
