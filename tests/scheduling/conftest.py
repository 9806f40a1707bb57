from tests.processes import share_test_database_with_processes

# The schedulers and the worker a test starts share its database.
share_test_database_with_processes()
