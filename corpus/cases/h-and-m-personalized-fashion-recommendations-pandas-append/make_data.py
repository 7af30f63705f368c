"""Synthetic h-and-m-personalized-fashion-recommendations data in the competition's folder
layout: customers, transactions, a sample submission; the answers are each customer's
purchase in the week after the training data (one article, graded by accuracy)."""
from pathlib import Path

import numpy as np
import pandas as pd

folder = Path("input/h-and-m-personalized-fashion-recommendations")
folder.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(2022)
articles = [f"0{700000000 + 1001 * i}" for i in range(40)]
n = 500
customers = pd.DataFrame(
    {
        "customer_id": [f"{i:08x}{i * 7919 % 65536:04x}" for i in range(1, n + 1)],
        "FN": rng.choice([1.0, np.nan], n),
        "Active": rng.choice([1.0, np.nan], n),
        "club_member_status": rng.choice(["ACTIVE", "PRE-CREATE"], n, p=[0.9, 0.1]),
        "fashion_news_frequency": rng.choice(["NONE", "Regularly"], n),
        "age": rng.integers(16, 80, n).astype(float),
        "postal_code": [f"{rng.integers(1 << 40):x}" for _ in range(n)],
    }
)
customers.loc[rng.choice(n, 10, replace=False), "age"] = np.nan
favourite = {age: articles[(age // 5) % len(articles)] for age in range(16, 100)}


def purchase(age):
    if not np.isnan(age) and rng.random() < 0.6:
        return favourite[int(age)]
    return articles[rng.integers(len(articles))]


days = pd.date_range("2020-09-01", "2020-09-15")
rows = []
for _ in range(3000):
    c = customers.iloc[rng.integers(n)]
    rows.append((days[rng.integers(len(days))].strftime("%Y-%m-%d"), c.customer_id, purchase(c.age), round(rng.uniform(0.01, 0.1), 6), int(rng.integers(1, 3))))
pd.DataFrame(rows, columns=["t_dat", "customer_id", "article_id", "price", "sales_channel_id"]).to_csv(folder / "transactions_train.csv", index=False)
customers.to_csv(folder / "customers.csv", index=False)
pd.DataFrame({"customer_id": customers.customer_id, "prediction": articles[0]}).to_csv(folder / "sample_submission.csv", index=False)
pd.DataFrame({"customer_id": customers.customer_id, "prediction": [purchase(a) for a in customers.age]}).to_csv("answers.csv", index=False)
