"""The shipped ONNX models and their model card, installed inside the package as ``tabletop.models``."""
