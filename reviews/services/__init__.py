"""The reviews app's services: start a review, decide its proposals, schedule reviews."""
