import Plexus

print("tour")
