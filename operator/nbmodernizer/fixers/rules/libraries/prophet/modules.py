"""Prophet's package: published as `fbprophet` before 1.0, `prophet` since (the same API)."""

from __future__ import annotations

from nbmodernizer.fixers.rules.model import Example, Kind, Rule, Symptom
from nbmodernizer.fixers.rules.toolkit.moves import move_modules
from nbmodernizer.fixers.rules.toolkit.probes import all_of, module_gone, not_

# the module as notebooks imported it -> the module today
MOVED_MODULES = {"fbprophet": "prophet"}

_SERIES = (
    "import pandas as pd\n"
    "history = pd.DataFrame({'ds': pd.date_range('2017-01-01', periods=60),"
    " 'y': [float(i % 7) + i / 10 for i in range(60)]})\n"
)

RULES = (
    Rule(
        id="prophet.fbprophet-module",
        library="prophet",
        changed_in="1.0",
        summary=(
            "`from fbprophet import Prophet` -> `from prophet import Prophet` (its submodules "
            "follow: `fbprophet.diagnostics`, `fbprophet.plot`)"
        ),
        kind=Kind.API,
        rewrite=move_modules(MOVED_MODULES),
        symptoms=(Symptom("ModuleNotFoundError", r"No module named 'fbprophet(\.\w+)*'"),),
        gone=all_of(module_gone("fbprophet"), not_(module_gone("prophet"))),
        examples=(
            Example(
                before=_SERIES
                + (
                    "from fbprophet import Prophet\n"
                    "import fbprophet.plot\n"
                    "model = Prophet(weekly_seasonality=True, daily_seasonality=False,"
                    " yearly_seasonality=False)\n"
                    "model.fit(history)\n"
                    "forecast = model.predict(model.make_future_dataframe(periods=7))\n"
                    "plotting = fbprophet.plot.plot_components\n"
                ),
                after=_SERIES
                + (
                    "from prophet import Prophet\n"
                    "import prophet.plot\n"
                    "model = Prophet(weekly_seasonality=True, daily_seasonality=False,"
                    " yearly_seasonality=False)\n"
                    "model.fit(history)\n"
                    "forecast = model.predict(model.make_future_dataframe(periods=7))\n"
                    "plotting = prophet.plot.plot_components\n"
                ),
                error="ModuleNotFoundError",
                check=(
                    "len(forecast) == 67 and forecast['ds'].iloc[-1] == pd.Timestamp('2017-03-08')"
                    " and callable(plotting)"
                ),
            ),
        ),
    ),
)
