#!/usr/bin/env python3
"""mappings/tools/arities.py on declarations shaped as the headers' are: a
default is appended only where HIP's overload means the same by it, and a
count no HIP overload takes becomes a null form."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "mappings", "tools"))
import arities  # noqa: E402

HIP = {"cudaStream_t": "hipStream_t", "cudaSurfaceBoundaryMode": "hipSurfaceBoundaryMode",
       "cudaBoundaryModeTrap": "hipBoundaryModeTrap", "cudaMemcpyHostToDevice": "hipMemcpyHostToDevice"}


def spelling(text):
    return text if text is None or text[0].isdigit() else HIP.get(text)


def fn(params, template=(), required=None, defaults=None):
    o = {"params": list(params), "template": list(template)}
    if required is not None:
        o["required"] = required
    if defaults:
        o["defaults"] = defaults
    return o


def forms(name, cuda, hip, hip_name=None):
    entries = {name: {"cuda": name, "hip": hip_name or "hip" + name[4:], "kind": "function"}}
    arities.add_call_forms(entries, {"functions": {name: cuda}},
                           [{"functions": {hip_name or "hip" + name[4:]: hip}}], spelling)
    e = entries[name]
    return e.get("default_args"), e.get("hip_by_arity")


class Arities(unittest.TestCase):
    def test_flags_default_is_appended(self):
        cuda = [fn(["cudaArray_t *", "const cudaChannelFormatDesc *", "cudaExtent", "unsigned int"],
                   required=3, defaults={"3": "0"})]
        hip = [fn(["hipArray_t *", "const hipChannelFormatDesc *", "hipExtent", "unsigned int"])]
        self.assertEqual(forms("cudaMalloc3DArray", cuda, hip), ({"3": "0"}, None))

    def test_cached_signatures_give_the_same_forms(self):
        # hdrscan's cache stores signatures as JSON: keys come back as strings.
        cuda = [fn(["cudaArray_t *", "const cudaChannelFormatDesc *", "cudaExtent", "unsigned int"],
                   required=3, defaults={"3": "0"})]
        hip = [fn(["hipArray_t *", "const hipChannelFormatDesc *", "hipExtent", "unsigned int"])]
        cached = json.loads(json.dumps(cuda)), json.loads(json.dumps(hip))
        self.assertEqual(forms("cudaMalloc3DArray", *cached), forms("cudaMalloc3DArray", cuda, hip))

    def test_count_without_defaults_is_a_null_form(self):
        cuda = [fn(["cudaGraph_t", "const cudaGraphNode_t *", "const cudaGraphNode_t *",
                    "const cudaGraphEdgeData *", "size_t"])]
        hip = [fn(["hipGraph_t", "const hipGraphNode_t *", "const hipGraphNode_t *", "size_t"])]
        self.assertEqual(forms("cudaGraphAddDependencies", cuda, hip), (None, {"5": None}))

    def test_default_of_another_meaning_is_not_appended(self):
        # CUDA (val, obj, x, y, layerFace, mode = trap); HIP (val, obj, x, y, face, layer):
        # the mode must not land in HIP's layer: the five-argument call is reported.
        cuda = [fn(["T", "cudaSurfaceObject_t", "int", "int", "int", "cudaSurfaceBoundaryMode"],
                   template=["T"], required=5, defaults={"5": "cudaBoundaryModeTrap"})]
        hip = [fn(["T", "hipSurfaceObject_t", "int", "int", "int", "int"], template=["T"])]
        self.assertEqual(forms("surfCubemapLayeredwrite", cuda, hip, "surfCubemapLayeredwrite"),
                         (None, {"5": None}))

    def test_default_for_another_form_is_not_appended(self):
        # CUDA's value form (obj, x, y, mode = trap) against HIP's pointer form (T *, obj, x, y).
        cuda = [fn(["cudaSurfaceObject_t", "int", "int", "cudaSurfaceBoundaryMode"], template=["T"],
                   required=3, defaults={"3": "cudaBoundaryModeTrap"})]
        hip = [fn(["T *", "hipSurfaceObject_t", "int", "int"], template=["T"])]
        self.assertEqual(forms("surf2Dread", cuda, hip, "surf2Dread"), (None, {"3": None}))

    def test_defaulted_pointer_is_not_filled(self):
        cuda = [fn(["cudaStream_t", "cudaStreamCaptureStatus *", "unsigned long long *"],
                   required=2, defaults={"2": "0"})]
        hip = [fn(["hipStream_t", "hipStreamCaptureStatus *", "unsigned long long *"])]
        self.assertEqual(forms("cudaStreamGetCaptureInfo", cuda, hip), (None, {"2": None}))

    def test_variadic_is_left_alone(self):
        cuda = [fn(["const char *"]), fn(["const char *", "int"])]
        hip = [dict(fn(["const char *"]), variadic=True)]
        self.assertEqual(forms("cudaPrintfLike", cuda, hip), (None, None))


if __name__ == "__main__":
    unittest.main()
