from django.apps import AppConfig


class ToyFamilyConfig(AppConfig):
    name = "tests.toyfamily"
    label = "toyfamily"
    verbose_name = "Toy family"
