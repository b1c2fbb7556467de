import threading
import pytest
from django.db import connection

@pytest.mark.django_db
def test_zz_who():
    with connection.cursor() as c:
        c.execute("select pid, state, left(query, 120), backend_start from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()")
        print("OTHERS", c.fetchall())
    print("THREADS", [t.name for t in threading.enumerate()])
