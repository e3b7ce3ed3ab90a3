from django.apps import AppConfig


class TrainingConfig(AppConfig):
    name = "training"
    verbose_name = "Training data"
