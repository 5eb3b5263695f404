"""What the photo reader takes, without OpenCV: the page names the limit before a photo comes,
and the reader (:mod:`nochmal.data.scan.reader`) enforces it."""

#: The largest photo file the reader takes, in MB (a phone's photo has 2-8 MB)
MAX_PHOTO_MB = 15
