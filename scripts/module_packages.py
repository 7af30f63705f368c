#!/usr/bin/env python3
"""Regenerate operator/nbmodernizer/module_packages.tsv: which PyPI distribution provides each
top-level import name, from the distributions' own data (their wheels' top_level.txt, else
the top-level entries of their RECORD).

Sources, merged in this order (a name keeps the first distribution that claims it):
  1. PREFERRED below: the names whose usual distribution differs from what a wheel says first
     (cv2 is in opencv-python, -headless and -contrib; the image wants the headless build);
  2. the distributions installed in this interpreter (the runner image's lock);
  3. the wheels of DISTRIBUTIONS below, downloaded with `pip download --no-deps` into a
     temporary folder (nothing downloaded is kept).
Names that are never a package's (the standard library, Python 2's, generic folder names some
wheels ship by mistake: `tests`, `utils`, ...) are left out, so a notebook's own helper
module of that name stays code drift; so are modules that moved to another name (`dicom` is
`pydicom` since 1.0, `fbprophet` is `prophet`): import rules rewrite them, which they could not
if a missing `dicom` stopped the loop as a missing package.

Usage: scripts/module_packages.py [--wheels FOLDER]   (needs PyPI; about 200 wheels)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "operator/nbmodernizer/module_packages.tsv"

# import name -> distribution, where a name's usual distribution is not the one a wheel
# listing finds first, or where the module moved to a package of another name
PREFERRED = {
    "cv2": "opencv-python-headless",
    "sklearn": "scikit-learn",
    "PIL": "pillow",
    "skimage": "scikit-image",
    "yaml": "PyYAML",
    "bs4": "beautifulsoup4",
    "Crypto": "pycryptodome",
    "dateutil": "python-dateutil",
    "imblearn": "imbalanced-learn",
    "google.protobuf": "protobuf",
    "lightfm": "lightfm",
    "mpl_toolkits": "matplotlib",
    "umap": "umap-learn",
    "Levenshtein": "levenshtein",
    "tensorflow": "tensorflow-cpu",
    "keras": "keras",
    "magic": "python-magic",
    "docx": "python-docx",
    "pptx": "python-pptx",
    "dotenv": "python-dotenv",
    "jose": "python-jose",
    "slugify": "python-slugify",
    "serial": "pyserial",
    "usb": "pyusb",
    "OpenSSL": "pyOpenSSL",
    "fitz": "PyMuPDF",
    "sentencepiece": "sentencepiece",
    "tflite_runtime": "tflite-runtime",
    "attr": "attrs",
    "git": "GitPython",
    "jwt": "PyJWT",
    "github": "PyGithub",
    "Bio": "biopython",
    "osgeo": "GDAL",
    "pyspark": "pyspark",
}

# The data-science distributions real notebooks import (issue 20's misses first, then what
# Kaggle's and Colab's images add); bounded: no multi-GB wheels (torch, tensorflow are in 2.)
# fmt: off
DISTRIBUTIONS = [
    "opencv-python-headless", "wordcloud", "tqdm", "nltk", "statsmodels", "folium", "optuna",
    "imbalanced-learn", "bokeh", "gensim", "spacy", "missingno", "numba", "squarify",
    "pydicom", "prophet", "plotly", "shap", "lime", "eli5", "category-encoders",
    "mlxtend", "yellowbrick", "hyperopt", "scikit-optimize", "bayesian-optimization",
    "sentencepiece", "transformers", "tokenizers", "datasets", "sentence-transformers",
    "textblob", "vaderSentiment", "langdetect", "emoji", "pyLDAvis", "rake-nltk", "jieba",
    "networkx", "geopandas", "shapely", "pyproj", "geopy", "haversine", "h3", "rasterio",
    "pycountry", "holidays", "pmdarima", "arch", "tsfresh", "sktime", "darts", "ta",
    "yfinance", "pandas-datareader", "pandas-profiling", "ydata-profiling", "sweetviz",
    "altair", "pydot", "graphviz", "pydotplus", "dtreeviz", "tabulate", "termcolor",
    "colorama", "ipywidgets", "beautifulsoup4", "lxml", "html5lib", "requests", "PyYAML",
    "pycryptodome", "xlrd", "openpyxl", "pyarrow", "fastparquet", "h5py", "tables",
    "joblib", "dask", "polars", "vaex", "modin", "numexpr", "bottleneck", "sympy",
    "cvxpy", "pulp", "ortools", "albumentations", "imgaug", "imageio", "timm",
    "efficientnet", "segmentation-models", "keras-tuner", "tensorflow-hub",
    "tensorflow-datasets", "tensorflow-addons", "torchvision", "torchaudio", "torchtext",
    "pytorch-lightning", "torchmetrics", "fastai", "accelerate", "peft", "catboost",
    "lightgbm", "xgboost", "kaggle", "gdown", "wandb", "mlflow", "tensorboard",
    "python-Levenshtein", "fuzzywuzzy", "rapidfuzz", "unidecode", "regex", "ftfy",
    "contractions", "inflect", "pyspellchecker", "spacy-langdetect", "keybert",
    "umap-learn", "hdbscan", "pynndescent", "faiss-cpu", "annoy", "implicit",
    "scikit-surprise", "lightfm", "librosa", "soundfile", "pydub", "python-speech-features",
    "SimpleITK", "nibabel", "pillow", "scikit-image", "kornia", "trimesh", "open3d",
    "pyod", "pyclustering", "kmodes", "lifelines", "scikit-survival", "econml",
    "dowhy", "causalml", "interpret", "pdpbox", "alibi", "xlsxwriter", "pandasql",
    "sqlalchemy", "psycopg2-binary", "pymongo", "redis", "boto3", "google-cloud-bigquery",
    "google-cloud-storage", "pyodbc", "cufflinks", "chart-studio", "dash", "streamlit",
    "gradio", "pyvis", "wordninja", "gym", "gymnasium", "stable-baselines3", "simpy",
    "deap", "pyswarms", "tpot", "autogluon.tabular", "flaml", "pycaret", "featuretools",
    "feature-engine", "dill", "cloudpickle", "pydantic", "jsonlines", "ujson", "orjson",
    "biopython", "rdkit", "deepchem", "mne", "astropy", "healpy", "vtk",
]
# fmt: on

# generic folder names some wheels ship at the top by mistake: a notebook importing one
# means its own file
NOT_PACKAGES = frozenset(
    [
        "tests",
        "test",
        "testing",
        "docs",
        "doc",
        "examples",
        "example",
        "src",
        "scripts",
        "script",
        "utils",
        "util",
        "bin",
        "lib",
        "build",
        "benchmarks",
        "benchmark",
        "data",
        "tools",
        "helpers",
        "common",
        "config",
        "settings",
        "main",
        "app",
        "setup",
        "conftest",
        "model",
        "models",
        "demo",
        "samples",
        # wheels' data folders
        "dist",
        "include",
        "lib64",
        "licensing",
        "licenses",
        "share",
        # namespaces many distributions share (`google.colab` is no protobuf's)
        "google",
        "nvidia",
        "azure",
        "backports",
    ]
)
# Python 2's standard library (the python2 rules' business, never an install)
PYTHON2_STDLIB = frozenset(
    [
        "cPickle",
        "StringIO",
        "cStringIO",
        "urllib2",
        "urlparse",
        "ConfigParser",
        "Queue",
        "Tkinter",
        "tkMessageBox",
        "httplib",
        "HTMLParser",
        "__builtin__",
        "commands",
        "cookielib",
        "copy_reg",
        "dummy_thread",
        "SocketServer",
        "SimpleHTTPServer",
        "BaseHTTPServer",
        "xmlrpclib",
        "anydbm",
        "dbhash",
        "thread",
        "exceptions",
        "sets",
        "md5",
        "sha",
        "UserDict",
        "UserList",
        "UserString",
        "htmlentitydefs",
        "robotparser",
        "repr",
        "markupbase",
    ]
)


def _importable_name(name: str) -> bool:
    return (
        all(part.isidentifier() for part in name.split("."))
        and not name.startswith("_")
        and name not in NOT_PACKAGES
        and name not in PYTHON2_STDLIB
        and name.split(".")[0] not in sys.stdlib_module_names
    )


def _top_level(entries: list[str]) -> set[str]:
    """Top-level import names from a wheel's RECORD paths."""
    names = set()
    for entry in entries:
        head = entry.split(",")[0].split("/")[0]
        if head.endswith((".dist-info", ".data", ".pth")) or not head:
            continue
        if "/" in entry.split(",")[0]:
            if head.isidentifier():  # not `faiss_cpu.libs`, a folder of shared libraries
                names.add(head)
        elif head.endswith((".py", ".so", ".pyd")):
            names.add(head.split(".")[0])
    return names


def wheel_names(wheel: Path) -> tuple[str, set[str]]:
    with zipfile.ZipFile(wheel) as archive:
        infos = [n for n in archive.namelist() if n.count("/") == 1 and ".dist-info/" in n]
        meta = next(n for n in infos if n.endswith("/METADATA"))
        name = next(
            line.split(":", 1)[1].strip()
            for line in archive.read(meta).decode("utf-8", "replace").splitlines()
            if line.startswith("Name:")
        )
        top = [n for n in infos if n.endswith("/top_level.txt")]
        if top:
            listed = archive.read(top[0]).decode().split()
            return name, {n.replace("/", ".") for n in listed}
        record = next(n for n in infos if n.endswith("/RECORD"))
        return name, _top_level(archive.read(record).decode().splitlines())


def _pip_download(folder: Path, distributions: list[str]) -> bool:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--quiet",
            "--dest",
            str(folder),
            *distributions,
        ],
        check=False,
        capture_output=True,
        text=True,
    )
    return done.returncode == 0


def download(folder: Path, batch: int = 25) -> list[Path]:
    """Wheels of DISTRIBUTIONS into `folder` (kept wheels are reused); a batch that fails
    (a distribution without a wheel) is retried one distribution at a time."""
    for start in range(0, len(DISTRIBUTIONS), batch):
        group = DISTRIBUTIONS[start : start + batch]
        if _pip_download(folder, group):
            continue
        for distribution in group:
            if not _pip_download(folder, [distribution]):
                print(f"no wheel for {distribution}: skipped", file=sys.stderr)
    return sorted(folder.glob("*.whl"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--wheels", type=Path, help="keep the wheels here (default: a temporary folder)"
    )
    wheels = parser.parse_args().wheels
    provided: dict[str, str] = dict(PREFERRED)
    for module, distributions in sorted(metadata.packages_distributions().items()):
        provided.setdefault(module, sorted(distributions)[0])
    with tempfile.TemporaryDirectory() as temporary:
        for wheel in download(wheels or Path(temporary)):
            distribution, names = wheel_names(wheel)
            for module in sorted(names):
                provided.setdefault(module, distribution)
    rows = sorted(
        (module, distribution)
        for module, distribution in provided.items()
        if _importable_name(module)
    )
    header = (
        "# import name -> the PyPI distribution that provides it. Generated by "
        "scripts/module_packages.py\n# from the distributions' wheels (top_level.txt, RECORD) "
        f"and the runner image's installed ones; {len(rows)} names. Do not edit by hand.\n"
    )
    OUT.write_text(header + "".join(f"{m}\t{d}\n" for m, d in rows))
    print(f"wrote {OUT} ({len(rows)} names)")


if __name__ == "__main__":
    main()
